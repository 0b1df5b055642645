// What other features may use of files in the browser: the profile picture's upload.
export { AvatarPicker } from './components/avatar-picker'
