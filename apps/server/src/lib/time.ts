export const toIso = (ms: number): string => new Date(ms).toISOString();
