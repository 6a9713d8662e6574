"""Alembic environment: runs migrations on the engine handed over by `chatbot.store.db.upgrade`."""

from __future__ import annotations

from alembic import context

from chatbot.store.schema import Base

engine = context.config.attributes["engine"]
with engine.connect() as connection:
    sqlite = connection.dialect.name == "sqlite"
    if sqlite:
        # A batch migration rebuilds a table by copying it and dropping the original; with foreign keys
        # enforced, dropping `repos` would cascade to every pull request. Off while migrating (outside
        # a transaction, where SQLite honours the pragma), on again after.
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        connection.commit()
    try:
        with connection.begin():
            context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=sqlite)
            context.run_migrations()
    finally:
        if sqlite:
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            connection.commit()
