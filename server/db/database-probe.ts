import pg from 'pg';

/**
 * The health check's own connection to the database, outside the ORM's pool: under load every
 * pool connection can be busy for seconds, and a load balancer must not read a busy instance as
 * a dead one. One short query on one dedicated connection, bounded by a timeout; a failed
 * connection is dropped and made again by the next check.
 */
export class DatabaseProbe {
  readonly #url: string;
  #client: pg.Client | undefined;
  #inFlight: Promise<boolean> | undefined;

  constructor(url: string) {
    this.#url = url;
  }

  /** True when `select 1` answers within `timeoutMs`. Concurrent checks share one query. */
  check(timeoutMs = 1000): Promise<boolean> {
    this.#inFlight ??= this.#query(timeoutMs).finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  async #query(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const answered = (async () => {
      const client = await this.#connected(timeoutMs);
      await client.query('select 1');
      return true as const;
    })().catch(() => false as const);
    const healthy = await Promise.race([answered, timedOut]);
    clearTimeout(timer);
    if (!healthy) this.#drop();
    return healthy;
  }

  async #connected(timeoutMs: number): Promise<pg.Client> {
    if (this.#client) return this.#client;
    const client = new pg.Client({ connectionString: this.#url, connectionTimeoutMillis: timeoutMs, application_name: 'interview-healthz' });
    client.on('error', () => this.#drop());
    this.#client = client;
    try {
      await client.connect();
    } catch (error) {
      this.#drop();
      throw error;
    }
    return client;
  }

  #drop(): void {
    const client = this.#client;
    this.#client = undefined;
    void client?.end().catch(() => undefined);
  }

  async close(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }
}
