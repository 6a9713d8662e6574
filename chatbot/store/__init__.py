"""The PR index: SQLAlchemy models, engines and sessions, queries, and Alembic migrations."""
