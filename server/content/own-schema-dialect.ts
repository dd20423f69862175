// Kysely's PostgreSQL introspection lists every schema's tables and checks each schema by name: one another client
// drops during that listing fails it ("schema ... does not exist"), and with it the migration of a database that
// shares its server with others. The migrator only asks which tables exist in our schema: this answers just that.
import {
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Kysely,
  PostgresDialect,
  PostgresIntrospector,
  sql,
  type TableMetadata,
} from "kysely";

class OwnSchemaIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<unknown>;
  readonly #all: PostgresIntrospector;

  constructor(db: Kysely<unknown>) {
    this.#db = db;
    this.#all = new PostgresIntrospector(db);
  }

  getSchemas() {
    return this.#all.getSchemas();
  }

  /** The tables and views of the connection's current schema, without their columns (nothing here reads them). */
  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; schema: string; kind: string }>`
      select c.relname as name, ns.nspname as schema, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      where ns.nspname = current_schema() and c.relkind in ('r', 'v', 'p')
      order by c.relname`.execute(this.#db);
    return rows.map((row) => ({ name: row.name, schema: row.schema, isView: row.kind === "v", columns: [] }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

export class OwnSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db);
  }
}
