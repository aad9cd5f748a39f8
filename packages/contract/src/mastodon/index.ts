// Mastodon's client API entities (docs.joinmastodon.org/entities), as Perch answers them.
export * from './errors';
export * from './account';
export * from './status';
export * from './application';
export * from './instance';
export * from './notification';
