import { z } from 'zod';

/**
 * One internal procedure as both sides see it: whether it reads (`query`) or changes (`mutation`),
 * and the zod schemas of its input and output. The service that owns the procedure implements it
 * with these schemas (`.input(contract.input).output(contract.output)`); the services that call it
 * get a client typed by them. Neither side imports the other's package.
 */
export interface ProcedureContract<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType, T extends 'query' | 'mutation' = 'query' | 'mutation'> {
  readonly type: T;
  readonly input: I;
  readonly output: O;
}

/** Procedures grouped by name, as a tRPC router nests them (`quota.reserve`). */
export interface ContractTree {
  readonly [name: string]: ProcedureContract | ContractTree;
}

export function query<I extends z.ZodType, O extends z.ZodType>(input: I, output: O): ProcedureContract<I, O, 'query'> {
  return { type: 'query', input, output };
}

export function mutation<I extends z.ZodType, O extends z.ZodType>(input: I, output: O): ProcedureContract<I, O, 'mutation'> {
  return { type: 'mutation', input, output };
}

/** The input of a procedure that takes none. */
export const noInput = z.void();

export interface CallOptions {
  signal?: AbortSignal;
}

type Arguments<I extends z.ZodType> = undefined extends z.input<I> ? [input?: z.input<I>, options?: CallOptions] : [input: z.input<I>, options?: CallOptions];

/** A client of a contract: `client.quota.reserve.mutate(input)`, `client.jobs.list.query(input)`. */
export type ContractClient<C extends ContractTree> = {
  readonly [K in keyof C]: C[K] extends ProcedureContract<infer I, infer O, 'query'>
    ? { query(...args: Arguments<I>): Promise<z.output<O>> }
    : C[K] extends ProcedureContract<infer I, infer O, 'mutation'>
      ? { mutate(...args: Arguments<I>): Promise<z.output<O>> }
      : C[K] extends ContractTree
        ? ContractClient<C[K]>
        : never;
};

export function isProcedureContract(node: ProcedureContract | ContractTree): node is ProcedureContract {
  return node.output instanceof z.ZodType && node.input instanceof z.ZodType;
}

/** Every procedure of a tree with its dotted path (`quota.reserve`), as tRPC names it. */
export function procedurePaths(tree: ContractTree, prefix = ''): Array<[string, ProcedureContract]> {
  return Object.entries(tree).flatMap(([name, node]) => {
    const path = prefix ? `${prefix}.${name}` : name;
    return isProcedureContract(node) ? [[path, node] as [string, ProcedureContract]] : procedurePaths(node, path);
  });
}

/** What calling a procedure needs: its path, its kind and its input. */
export type ProcedureCaller = (path: string, type: 'query' | 'mutation', input: unknown, options?: CallOptions) => Promise<unknown>;

/** A typed client of `contract` that sends every call through `call`. */
export function contractClient<C extends ContractTree>(contract: C, call: ProcedureCaller): ContractClient<C> {
  const build = (tree: ContractTree, prefix: string): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(tree).map(([name, node]) => {
        const path = prefix ? `${prefix}.${name}` : name;
        if (!isProcedureContract(node)) return [name, build(node, path)];
        const invoke = (input?: unknown, options?: CallOptions) => call(path, node.type, input, options);
        return [name, node.type === 'query' ? { query: invoke } : { mutate: invoke }];
      }),
    );
  return build(contract, '') as ContractClient<C>;
}

/**
 * Refuses a router that does not implement exactly its contract: a procedure missing, one more, or
 * a query where the contract says mutation. The owning service calls it when it builds its router.
 */
export function assertImplements(router: { _def: { procedures: Record<string, unknown> } }, contract: ContractTree, service: string): void {
  const implemented = new Map(Object.entries(router._def.procedures).map(([path, procedure]) => [path, (procedure as { _def: { type: string } })._def.type]));
  const expected = new Map(procedurePaths(contract).map(([path, procedure]) => [path, procedure.type as string]));
  const problems = [
    ...[...expected].filter(([path, type]) => implemented.get(path) !== type).map(([path, type]) => `${path} (${type}) is ${implemented.has(path) ? `a ${implemented.get(path)}` : 'missing'}`),
    ...[...implemented.keys()].filter((path) => !expected.has(path)).map((path) => `${path} is not in the contract`),
  ];
  if (problems.length > 0) throw new Error(`The ${service} router does not match its contract: ${problems.join('; ')}`);
}
