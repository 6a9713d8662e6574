"""Getting pull requests into the index: incremental sync from a PRSource, and bulk import."""
