/** The two Redis clients emporio/redis supports, connected the same way in every Redis test. */
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import type { RedisClientLike } from 'emporio/redis';

export interface Connection {
  client: RedisClientLike;
  /** A raw command, for looking at what the stores wrote. */
  command(args: string[]): Promise<unknown>;
  close(): Promise<void>;
}

export const CLIENTS: Record<string, (url: string) => Promise<Connection>> = {
  'node-redis': async (url) => {
    const client = createClient({ url, socket: { reconnectStrategy: 50 } });
    client.on('error', () => {});
    await client.connect();
    return { client, command: (args) => client.sendCommand(args), close: async () => client.destroy() };
  },
  ioredis: async (url) => {
    const client = new Redis(url, { retryStrategy: () => 50, maxRetriesPerRequest: 1, lazyConnect: true });
    client.on('error', () => {});
    await client.connect();
    return {
      client,
      command: ([command, ...args]) => client.call(command as string, ...args),
      close: async () => client.disconnect(),
    };
  },
};

/** Opens connections of the client `kind` to the server at `url()`, and closes all a test opened (call `closeAll` after each). */
export function connections(url: () => string) {
  const open: Connection[] = [];
  return {
    async connect(kind: string): Promise<Connection> {
      const connection = await (CLIENTS[kind] as (url: string) => Promise<Connection>)(url());
      open.push(connection);
      return connection;
    },
    closeAll: () => Promise.all(open.splice(0).map((connection) => connection.close())),
  };
}
