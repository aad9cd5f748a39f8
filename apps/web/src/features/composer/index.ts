export { PostComposer } from './PostComposer';
export { PostEditor, type EditorImage } from './PostEditor';
export { draftWarnings, editorWarningsOf, warningsToSend, type EditorWarnings } from './Warnings';
