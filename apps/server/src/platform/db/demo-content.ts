import { GUEST_CREDENTIALS } from '@perch/contract';

export interface DemoMember {
  username: string;
  firstName: string;
  lastName: string;
  bio: string;
  /** Two colours of the generated avatar; none means the default avatar. */
  avatar?: [string, string];
}

export const featuredMembers: DemoMember[] = [
  {
    username: GUEST_CREDENTIALS.username,
    firstName: 'Guest',
    lastName: 'User',
    bio: 'Just looking around. Say hi!',
    avatar: ['#0f766e', '#14b8a6'],
  },
  {
    username: 'ada_okafor',
    firstName: 'Ada',
    lastName: 'Okafor',
    bio: 'Engineer by day, amateur astronomer by night. Coffee first.',
    avatar: ['#7c3aed', '#c084fc'],
  },
  {
    username: 'liamchen',
    firstName: 'Liam',
    lastName: 'Chen',
    bio: 'Street photographer. Collecting light, one city at a time.',
    avatar: ['#b45309', '#f59e0b'],
  },
  {
    username: 'sofia_m',
    firstName: 'Sofia',
    lastName: 'Marquez',
    bio: 'Plant person, bread baker, occasional runner.',
    avatar: ['#be123c', '#fb7185'],
  },
  {
    username: 'noahw',
    firstName: 'Noah',
    lastName: 'Williams',
    bio: 'Writing about small software and big mountains.',
    avatar: ['#1d4ed8', '#60a5fa'],
  },
];

/** Members who mostly read and like: they make the demo's like counts real. */
export const quietMembers: DemoMember[] = [
  ['mira_k', 'Mira', 'Kovac'],
  ['theo_b', 'Theo', 'Baptiste'],
  ['hana_s', 'Hana', 'Sato'],
  ['omar_f', 'Omar', 'Farouk'],
  ['lena_v', 'Lena', 'Vogel'],
  ['jonas_p', 'Jonas', 'Pereira'],
  ['aisha_r', 'Aisha', 'Rahman'],
  ['mateo_g', 'Mateo', 'Garcia'],
  ['ines_d', 'Ines', 'Duarte'],
  ['felix_n', 'Felix', 'Nilsson'],
  ['zara_h', 'Zara', 'Haddad'],
  ['kai_l', 'Kai', 'Lindqvist'],
].map(([username, firstName, lastName]) => ({
  username: username ?? '',
  firstName: firstName ?? '',
  lastName: lastName ?? '',
  bio: '',
}));

export interface DemoPost {
  author: string;
  content: string;
  /** The post's images in order (an album when more than one). */
  images?: ('sunrise' | 'harbour' | 'meadow' | 'city')[];
  hoursAgo: number;
  likes: number;
  comments: { author: string; text: string }[];
}

export const demoPosts: DemoPost[] = [
  {
    author: 'ada_okafor',
    content:
      'Clear skies tonight for the first time in weeks. Saturn\u2019s rings through a 6" scope never get old. #astronomy \u{1FA90}',
    hoursAgo: 3,
    likes: 12,
    comments: [
      { author: 'liamchen', text: 'Jealous! It has been cloudy here all month. #astronomy' },
      { author: 'guest', text: 'What scope are you using?' },
    ],
  },
  {
    author: 'liamchen',
    content: 'Caught the harbour right as the fog lifted this morning.',
    images: ['harbour', 'city', 'meadow'],
    hoursAgo: 9,
    likes: 15,
    comments: [{ author: 'sofia_m', text: 'This could be a postcard.' }],
  },
  {
    author: 'sofia_m',
    content: 'Day 40 of my #sourdough starter. It finally doubled overnight! \u{1F35E}',
    hoursAgo: 20,
    likes: 9,
    comments: [
      { author: 'noahw', text: 'Patience pays off. Share the recipe?' },
      { author: 'ada_okafor', text: 'Name it. Every #sourdough starter deserves a name.' },
    ],
  },
  {
    author: 'noahw',
    content:
      'Small software is underrated: one binary, one database file, backups with cp. Perch runs happily on a tiny box. #selfhosting',
    hoursAgo: 30,
    likes: 7,
    comments: [
      {
        author: 'liamchen',
        text: 'Hard agree, @noahw. Fewer moving parts, fewer 3am pages. #selfhosting',
      },
    ],
  },
  {
    author: 'guest',
    content: 'Hello Perch! Trying out this little corner of the internet. \u{1F44B}',
    hoursAgo: 48,
    likes: 6,
    comments: [{ author: 'sofia_m', text: 'Welcome! Glad you are here.' }],
  },
  {
    author: 'ada_okafor',
    content: 'Reminder that the Geminids peak next week. Find somewhere dark and look up.',
    images: ['sunrise', 'meadow'],
    hoursAgo: 72,
    likes: 11,
    comments: [
      { author: 'noahw', text: 'Marking my calendar.' },
      { author: 'guest', text: 'Any tips for photographing them?' },
      { author: 'liamchen', text: 'Wide lens, long exposure, and a lot of luck.' },
    ],
  },
  {
    author: 'liamchen',
    content: 'Rainy streets make the best reflections. Went out at 6am and had the city to myself.',
    hoursAgo: 110,
    likes: 8,
    comments: [{ author: 'ada_okafor', text: 'The early hours are the best hours.' }],
  },
  {
    author: 'sofia_m',
    content:
      'New personal best on my 10k this morning: 52:14. Legs are jelly but worth it. \u{1F3C3}\u200D\u2640\uFE0F',
    hoursAgo: 150,
    likes: 14,
    comments: [
      { author: 'guest', text: 'Congrats, that is fast!' },
      { author: 'noahw', text: 'Well earned. Rest up.' },
    ],
  },
];

/** Who follows whom among the featured members (quiet members follow the ones who post). */
export const demoFollows: [follower: string, followee: string][] = [
  ['guest', 'ada_okafor'],
  ['guest', 'sofia_m'],
  ['ada_okafor', 'guest'],
  ['ada_okafor', 'liamchen'],
  ['liamchen', 'ada_okafor'],
  ['liamchen', 'noahw'],
  ['sofia_m', 'ada_okafor'],
  ['sofia_m', 'guest'],
  ['noahw', 'sofia_m'],
];
