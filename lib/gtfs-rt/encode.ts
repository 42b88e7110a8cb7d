// Encoding the feeds. A FeedMessage's bytes are its header's field followed by its entities' (protobuf fields
// concatenate), so the entities are encoded once and the header put in front: the service compares a version's
// entity bytes with the previous version's to keep the header's timestamp honest without encoding twice. The
// entities are written by wire.ts (the bindings' bytes, without the bindings' garbage); a value it cannot write as
// the bindings would sends the whole message through gtfs-realtime-bindings instead.
import { transit_realtime } from 'gtfs-realtime-bindings';
import { Writer } from 'protobufjs/minimal';
import { NotWireable, writeEntities, type WireEntity } from './wire';

const { FeedMessage, FeedEntity } = transit_realtime;

/** FeedMessage.entity is field 2, length-delimited: tag (2 << 3) | 2. */
const ENTITY_TAG = 18;

/** The entity fields of a message, encoded (as FeedMessage.encode writes them). */
export function encodeEntities(message: { entity: readonly WireEntity[] }): Uint8Array {
  try {
    return writeEntities(message.entity);
  } catch (e) {
    if (!(e instanceof NotWireable)) throw e;
    return encodeEntitiesWithBindings(message);
  }
}

/** The same bytes through gtfs-realtime-bindings' own encoder. */
export function encodeEntitiesWithBindings(message: { entity?: readonly transit_realtime.IFeedEntity[] | null }): Uint8Array {
  const writer = Writer.create();
  for (const e of message.entity ?? []) FeedEntity.encode(e, writer.uint32(ENTITY_TAG).fork()).ldelim();
  return writer.finish();
}

/** The whole message: the header's field, then the entities' bytes. */
export function encodeWithHeader(header: transit_realtime.IFeedHeader, entities: Uint8Array): Buffer {
  const head = FeedMessage.encode({ header, entity: [] }).finish();
  return Buffer.concat([head, entities]);
}

/** The readable copy (?format=json) of the encoded feed: the bindings' JSON mapping of its bytes (floats as sent). */
export function toJson(bytes: Uint8Array): string {
  return JSON.stringify(FeedMessage.toObject(FeedMessage.decode(bytes), { longs: Number, enums: String, defaults: false }));
}
