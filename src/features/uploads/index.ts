// What other features and apps may use of uploads in the browser: the picture and logo pickers, and the parts an
// app's own uploads are built from (sending with progress, checking a file before it is sent, shrinking an image).
export type { UploadRefusal } from './components/send-upload'
export { AvatarPicker, LogoPicker } from './components/square-picture-picker'
export { isOfType } from './components/upload-checks'
export { UploadProgress } from './components/upload-progress'
export { useUpload } from './components/use-upload'
export { shrinkImage } from './shrink-image'
