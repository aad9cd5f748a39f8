export { PostComposer } from './PostComposer';
export { PostEditor, type EditorImage } from './PostEditor';
