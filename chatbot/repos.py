"""GitHub repository names (`owner/name`): the one check every way a name enters prhub goes through
(chat commands, the CLI, the GitHub webhook), so that `../../rate_limit`, `a/b/../../c` or
`owner/name?x=1` never become a repo row, a subscription or a GitHub request path."""

from __future__ import annotations

import re

# GitHub: an owner is letters, digits and hyphens (underscores for managed users), at most 39, not
# starting with a hyphen; a repository name is letters, digits, `.`, `_` and `-`, at most 100.
_REPO_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,38}/[A-Za-z0-9._-]{1,100}")


def is_repo_name(value: str) -> bool:
    """Whether `value` is a well-formed `owner/name` (`.` and `..` are not names)."""
    return bool(_REPO_NAME.fullmatch(value)) and value.split("/")[1] not in (".", "..")
