import { FlowProducer, Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import type { QueueNames } from './queue-names.js';
import { QueueUnavailableError, connectProducer } from '../../platform/redis/index.js';

/** Everything a producer holds on one Redis; replaced whole when docpipe's Redis moves. */
export interface ClientConnections {
  readonly url: string;
  readonly connection: Redis;
  readonly documents: Queue;
  readonly documentSets: Queue;
  readonly flows: FlowProducer;
  readonly documentEvents: QueueEvents;
  readonly documentSetEvents: QueueEvents;
  close(): Promise<void>;
}

/** Connects a producer to `url`, failing fast with QueueUnavailableError when Redis is not there. */
export async function openConnections(url: string, names: QueueNames): Promise<ClientConnections> {
  // Before any queue exists: BullMQ sends commands as soon as one is made, and a producer's
  // connection has no offline queue to hold them.
  const connection = await connectProducer(url);
  // QueueEvents block on their own connection, duplicated from this template (never connected
  // itself); BullMQ wants those to retry for ever.
  const template = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: true });
  const prefix = names.prefix;
  const documents = new Queue(names.documents, { connection, prefix });
  const documentSets = new Queue(names.documentSets, { connection, prefix });
  const flows = new FlowProducer({ connection, prefix });
  const documentEvents = new QueueEvents(names.documents, { connection: template, prefix });
  const documentSetEvents = new QueueEvents(names.documentSets, { connection: template, prefix });
  const all = [documents, documentSets, flows, documentEvents, documentSetEvents];
  // Connection errors surface through the calls that fail and through the health checks; an
  // 'error' event without a listener would end the process.
  const ignore = () => undefined;
  documents.on('error', ignore);
  documentSets.on('error', ignore);
  flows.on('error', ignore);
  documentEvents.on('error', ignore);
  documentSetEvents.on('error', ignore);
  const close = async () => {
    await Promise.all(all.map((c) => c.close().catch(() => undefined)));
    connection.disconnect();
    template.disconnect();
  };
  try {
    await Promise.all([
      connection.ping(),
      documentEvents.waitUntilReady(),
      documentSetEvents.waitUntilReady(),
    ]);
  } catch (err) {
    await close();
    throw QueueUnavailableError.unreachable(url, undefined, err);
  }
  return {
    url,
    connection,
    documents,
    documentSets,
    flows,
    documentEvents,
    documentSetEvents,
    close,
  };
}
