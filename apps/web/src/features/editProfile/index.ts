export { EditProfileModal } from './EditProfileModal';
