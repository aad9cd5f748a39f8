import type { Prng } from './prng';

const split = (words: string) => words.trim().split(/\s+/);

export const FIRST_NAMES = split(`
  Ada Alan Alice Amara Amir Ana Andrea Anika Anton Aria Arjun Astrid Ayla Beatriz Ben Bianca Bruno
  Camila Carlos Chen Chiara Chloe Clara Daniel Dara Diego Dmitri Elena Eli Elif Emma Enzo Erik Esme
  Ethan Eva Farah Felix Fatima Finn Freya Gabriel Gemma Grace Hana Hannah Harper Hassan Helena Hugo
  Ibrahim Ines Iris Isaac Ivan Jade Jakob Jamal Jana Javier Jin Joao Jonas Julia Kai Kamal Karin
  Kavya Kenji Kiara Kofi Lara Layla Leila Leo Liam Lina Lior Lucas Lucia Luka Maya Mateo Mei Mila
  Milan Mina Mira Nadia Naomi Nia Nico Nina Noah Nora Olga Omar Oscar Paolo Pia Priya Rafael Rhea
  Rina Rohan Rosa Ruby Sami Sara Selin Sofia Soren Tara Teo Theo Uma Vera Victor Wen Yara Yusuf Zara
  Zoe
`);

export const LAST_NAMES = split(`
  Abbott Adeyemi Alvarez Andersen Arslan Bauer Becker Bergstrom Bianchi Brooks Campbell Carvalho
  Castillo Chan Chowdhury Costa Dahl Das Delgado Dubois Eriksen Evans Fernandes Fischer Fontaine
  Garcia Gomez Greco Gupta Haddad Hansen Hartmann Hayes Herrera Hoffmann Ibarra Ito Jensen Jovanovic
  Kaur Keller Khan Kim Kowalski Kruger Kumar Larsen Laurent Lee Lindqvist Lopez Lund Marino Martin
  Mendes Meyer Molina Moreau Morales Mori Murphy Nakamura Navarro Nguyen Nielsen Novak Okafor Olsen
  Ortiz Ozturk Park Patel Pereira Petrov Quinn Ramos Reyes Ricci Rivera Romano Rossi Russo Saito
  Santos Sato Schmidt Schneider Silva Singh Sokolov Suzuki Tanaka Torres Turner Varga Vargas Vogel
  Walsh Weber Wong Yamamoto Yilmaz Young Zhang Zielinski
`);

const SUBJECTS = split(`
  I we my-team the-city my-neighbour our-club the-new-library this-project my-cat the-market
  everyone-here my-sister the-bakery our-garden the-band my-code the-museum the-weather my-brother
`).map((word) => word.replace(/-/g, ' '));

const VERBS = split(`
  loved finished started found tried baked painted rebuilt visited shipped discovered planted read
  watched fixed wrote cooked photographed recorded sketched explored redesigned learned organised
`);

const ADJECTIVES = split(`
  tiny huge quiet bright strange lovely cosy wild gentle fresh golden rainy sunny simple clever
  ancient modern silly brave curious delicious colourful peaceful chaotic elegant surprising
`);

const NOUNS = split(`
  bread garden river poem sketch playlist recipe bicycle notebook lighthouse mountain sunset coffee
  library puzzle melody harbour forest lantern window kitchen train novel festival teapot meadow
  workshop album skyline trail market podcast robot telescope canvas island bridge
`);

const PLACES = split(`
  downtown by-the-river at-the-park near-the-station in-the-old-town on-the-hill at-home
  by-the-sea in-the-studio at-the-market behind-the-library at-the-cafe
`).map((word) => word.replace(/-/g, ' '));

const CLOSERS = [
  'Highly recommend.',
  'Would do it again.',
  'What a day!',
  'Still thinking about it.',
  'More soon.',
  'Thoughts?',
  'Who else is in?',
  'Worth every minute.',
  'Not bad for a first try.',
  'Can not wait for next week.',
];

const TAGS = split(`
  baking gardening photography music books travel coding art running coffee cycling cooking
  design science history film hiking weekend community
`);

const EMOJI = ['🌱', '☕', '📚', '🎶', '🚲', '🍞', '🌅', '✨', '🎨', '🧩', '🏔️', '🐈'];

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function sentence(prng: Prng): string {
  switch (prng.int(4)) {
    case 0:
      return `${capitalise(prng.pick(SUBJECTS))} ${prng.pick(VERBS)} a ${prng.pick(ADJECTIVES)} ${prng.pick(NOUNS)} ${prng.pick(PLACES)}.`;
    case 1:
      return `The ${prng.pick(ADJECTIVES)} ${prng.pick(NOUNS)} ${prng.pick(PLACES)} is ${prng.pick(ADJECTIVES)} today.`;
    case 2:
      return `Just ${prng.pick(VERBS)} my ${prng.pick(NOUNS)} and it turned out ${prng.pick(ADJECTIVES)}.`;
    default:
      return `Anyone know a ${prng.pick(ADJECTIVES)} ${prng.pick(NOUNS)} ${prng.pick(PLACES)}?`;
  }
}

/**
 * Rare words: order codes, one for every 1,000 posts of the instance (1,000 on a million), so
 * that each is in about ten posts whatever the instance's size and a search for one finds a page
 * of about the same size on every instance.
 */
export const rareWordsFor = (posts: number): number => Math.max(1, Math.round(posts / 1000));
const rareWord = (n: number) => `qx${n}`;

/**
 * A post: one to four sentences, sometimes a closing line, a hashtag, an emoji or (one in a
 * hundred) one of `rareWords` order codes, which makes a rare word to search for.
 */
export function postText(prng: Prng, rareWords: number): string {
  const parts: string[] = [];
  const sentences = 1 + prng.int(prng.chance(0.2) ? 4 : 2);
  for (let i = 0; i < sentences; i++) parts.push(sentence(prng));
  if (prng.chance(0.3)) parts.push(prng.pick(CLOSERS));
  if (prng.chance(0.35)) parts.push(`#${prng.pick(TAGS)}`);
  if (prng.chance(0.25)) parts.push(prng.pick(EMOJI));
  if (prng.chance(0.01)) parts.push(`Order ${rareWord(prng.int(rareWords))}.`);
  return parts.join(' ');
}

export function commentText(prng: Prng): string {
  if (prng.chance(0.4))
    return `${prng.pick(CLOSERS)}${prng.chance(0.3) ? ` ${prng.pick(EMOJI)}` : ''}`;
  return sentence(prng);
}

export function bioText(prng: Prng): string {
  return `${capitalise(prng.pick(ADJECTIVES))} ${prng.pick(NOUNS)} enthusiast ${prng.pick(PLACES)}. Into #${prng.pick(TAGS)} and #${prng.pick(TAGS)}.`;
}

/** 2 or 3 letters out of a name, lower-cased: what someone types into member search. */
export function searchFragment(prng: Prng): string {
  const name = prng.pick(prng.chance(0.5) ? FIRST_NAMES : LAST_NAMES).toLowerCase();
  const length = Math.min(name.length, prng.chance(0.5) ? 2 : 3);
  const start = prng.int(name.length - length + 1);
  return name.slice(start, start + length);
}

/**
 * What members search posts for: a common word, a rare one (of `rareWords`), a prefix or a
 * phrase.
 */
export const postSearches = {
  common: (prng: Prng) => prng.pick(NOUNS),
  rare: (prng: Prng, rareWords: number) => rareWord(prng.int(rareWords)),
  prefix: (prng: Prng) => `${prng.pick(NOUNS).slice(0, 3)}*`,
  phrase: (prng: Prng) => `"${prng.pick(ADJECTIVES)} ${prng.pick(NOUNS)}"`,
};

/** A tag the generated posts carry. */
export const someTag = (prng: Prng) => prng.pick(TAGS);
