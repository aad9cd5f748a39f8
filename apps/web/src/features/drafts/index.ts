export { DraftsMenu } from './DraftsMenu';
export { useDraft, type DraftContent } from './useDraft';
