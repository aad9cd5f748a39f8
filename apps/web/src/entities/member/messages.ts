/** Toasts and notices about members, word for word. */
export const usersMessages = {
  followed: (username: string) => `Followed @${username}`,
  unfollowed: (username: string) => `Unfollowed @${username}`,
  followFailure: 'Something went wrong',
  profileEdited: 'Pofile edited',
  profileEditFailure: 'Something went wrong',
  searchEmpty: 'User not found!',
} as const;
