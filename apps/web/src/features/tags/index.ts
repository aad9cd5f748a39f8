export { TagList } from './TagList';
export { TrendingTags } from './TrendingTags';
