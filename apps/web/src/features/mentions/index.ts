export { MentionListbox } from './MentionListbox';
export { useMentionAutocomplete } from './useMentionAutocomplete';
