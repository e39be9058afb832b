import {
  OperationNodeTransformer,
  PrimitiveValueListNode,
  ValueNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';

const toSqlite = (value: unknown): unknown =>
  typeof value === 'boolean' ? (value ? 1 : 0) : value;

class BooleanToInteger extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    return typeof node.value === 'boolean' ? ValueNode.create(toSqlite(node.value)) : node;
  }

  protected override transformPrimitiveValueList(
    node: PrimitiveValueListNode,
  ): PrimitiveValueListNode {
    return node.values.some((value) => typeof value === 'boolean')
      ? PrimitiveValueListNode.create(node.values.map(toSqlite))
      : node;
  }
}

/**
 * SQLite has no boolean type and better-sqlite3 refuses to bind JavaScript booleans: write them as 1/0,
 * as Better Auth does (ADR 0001). Reads go through presenters, which accept either.
 */
export class SqliteBooleanPlugin implements KyselyPlugin {
  readonly #transformer = new BooleanToInteger();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node);
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}
