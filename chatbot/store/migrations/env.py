"""Alembic environment: runs migrations on the engine handed over by `chatbot.store.db.upgrade`."""

from __future__ import annotations

from alembic import context

from chatbot.store.schema import Base

engine = context.config.attributes["engine"]
with engine.begin() as connection:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    context.run_migrations()
