export { PostComposer } from './PostComposer';
export { PostEditor, type EditorImage } from './PostEditor';
export { editorWarningsOf, warningsToSend, type EditorWarnings } from './Warnings';
