export * from './transit';
export * from './live';
export * from './delay';
export * from './api';
export * from './access';
export * from './admin';
export * from './history';
