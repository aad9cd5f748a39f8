export { CommentsSection } from './CommentsSection';
