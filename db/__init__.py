"""Database layer: models, engine/session, migrations, row-level security, one repository per aggregate."""
