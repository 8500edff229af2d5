"""Create the PostgreSQL database named in DATABASE_URL when it does not exist yet."""

import os
import sys

import dj_database_url
import psycopg
from psycopg import sql


def main() -> None:
    config = dj_database_url.parse(os.environ["DATABASE_URL"])
    if not config["ENGINE"].endswith("postgresql"):
        return
    admin = {
        "host": config["HOST"] or None,
        "port": config["PORT"] or None,
        "user": config["USER"] or None,
        "password": config["PASSWORD"] or None,
    }
    with psycopg.connect(dbname="postgres", autocommit=True, **admin) as conn:
        found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [config["NAME"]])
        if found.fetchone() is None:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(config["NAME"])))
            print(f"created database {config['NAME']}", file=sys.stderr)


if __name__ == "__main__":
    main()
