import { defineConfig } from 'tsup';

// ESM and CommonJS builds with their .d.ts, one entry per import path.
export default defineConfig({
  entry: ['src/index.ts', 'src/pg.ts', 'src/postgres.ts', 'src/kysely.ts', 'src/drizzle.ts', 'src/sequelize.ts', 'src/typeorm.ts', 'src/mikro-orm.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  // Class names as written (value.constructor.name is Nanoflake, not _Nanoflake).
  keepNames: true,
  target: 'es2022',
  external: ['pg', 'postgres', 'kysely', 'drizzle-orm', 'sequelize', '@mikro-orm/core'],
});
