export * from './auth';
export * from './bookmarks';
export * from './comments';
export * from './errors';
export * from './health';
export * from './pagination';
export * from './posts';
export * from './users';
