/**
 * A snapshot served from the cache alone while the database is out of reach says nothing about
 * what is not cached: a missing document or an empty list there is unknown, not absent.
 */
export const unknownYet = (snapshot: { metadata: { fromCache: boolean } }, empty: boolean): boolean => snapshot.metadata.fromCache && empty
