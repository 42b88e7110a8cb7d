export * from './transit';
export * from './live';
export * from './delay';
export * from './api';
export * from './history';
export * from './integration';
export * from './live-delta';
