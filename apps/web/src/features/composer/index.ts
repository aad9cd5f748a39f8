export { PostComposer } from './PostComposer';
export { PostEditor } from './PostEditor';
export { trackAlbumProgress, type AlbumItem } from './AlbumFields';
export { draftWarnings, editorWarningsOf, warningsToSend, type EditorWarnings } from './Warnings';
