// The real network (MTA NYCT Manhattan buses), bundled by a static import so the simulator runs wherever
// the app is bundled, with no file paths to resolve at run time.
import manhattan from './data/manhattan-network.json';
import { prepareNetwork, type SimNetwork } from './network';

let prepared: SimNetwork | null = null;

/** The prepared Manhattan network, validated once per process. */
export function defaultNetwork(): SimNetwork {
  prepared ??= prepareNetwork(manhattan);
  return prepared;
}
