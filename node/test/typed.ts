// Compiled with tsc --strict against the installed package's declarations
// (tests/t/025_node_package.pl): the types users get from each import path.
import pg from 'pg';
import { Caloriosa, Codokey, Nanoflake, Scru160, Uid60, type AnyValue, type CodokeyContext } from 'chronoid';
import { registerTypes } from 'chronoid/pg';
import { registerTypes as registerPostgres } from 'chronoid/postgres';
import type { GeneratedNanoflake, Scru160Column } from 'chronoid/kysely';
import { nanoflake, scru160 } from 'chronoid/drizzle';

const id: Nanoflake = Nanoflake.fromText('3kgeoqm2h3');
const n: bigint = id.toBigInt();
const when: Date = id.date;
const bytes: Uint8Array = Scru160.generate().toBinary();
const context: CodokeyContext = { yearZero: 1970, maxYear: 3265, fractionMax: 9 };
const decoded: { date: Date; precision: number } = Codokey.fromText('yla0').decode(context);
const values: AnyValue[] = [id, Caloriosa.fromText('b8MpZ6ZrkE9'), Uid60.fromText('xinaS8QBh')];
interface Database { orders: { id: GeneratedNanoflake; receipt: Scru160Column } }
const register: (pool: pg.Pool) => Promise<void> = registerTypes;
void [n, when, bytes, decoded, values, register, registerPostgres, nanoflake, scru160, {} as Database];
// @ts-expect-error: 64-bit IDs are never JavaScript numbers
Nanoflake.fromBigInt(12);
import { Model, Sequelize } from 'sequelize';
import { NANOFLAKE, SCRU160, type ChronoidDataType } from 'chronoid/sequelize';
import { nanoflake as nanoflakeTransformer, type ChronoidTransformer } from 'chronoid/typeorm';
import { EntitySchema as TypeormEntitySchema } from 'typeorm';
import { NanoflakeType, Uid60Type } from 'chronoid/mikro-orm';
import { EntitySchema as MikroEntitySchema } from '@mikro-orm/core';

class Order extends Model { declare id: Nanoflake; declare receipt: Scru160 }
Order.init({ id: { type: NANOFLAKE, primaryKey: true }, receipt: SCRU160 }, { sequelize: new Sequelize('postgres://localhost/app') });
const sequelizeType: ChronoidDataType<Nanoflake> = NANOFLAKE;
const transformer: ChronoidTransformer<Nanoflake> = nanoflakeTransformer;
const parsed: Nanoflake | null | undefined = nanoflakeTransformer.from('3kgeoqm2h3');
new TypeormEntitySchema<{ id: Nanoflake }>({ name: 'Order', columns: { id: { type: 'text', primary: true, transformer: nanoflakeTransformer } } });
new MikroEntitySchema<{ id: Nanoflake; ticket?: Uid60 }>({ name: 'Order', properties: { id: { type: NanoflakeType, primary: true }, ticket: { type: Uid60Type, nullable: true } } });
const fromDatabase: Nanoflake | null | undefined = new NanoflakeType().convertToJSValue('3kgeoqm2h3');
void [sequelizeType, transformer, parsed, fromDatabase];
