import { html, type Html } from './html';

/** An image for link previews, its address absolute. */
export interface PreviewImage {
  url: string;
  alt: string;
  /** Known for uploads; demo images have none recorded. */
  size: { width: number; height: number } | null;
}

/** What a page tells browsers, search engines and link previews about itself. */
export interface PageMeta {
  title: string;
  description: string;
  /** Absolute. */
  canonical: string;
  type: 'profile' | 'article' | 'website';
  image: PreviewImage | null;
  /** A post's own image: previews show it large. */
  largeImage: boolean;
  noindex: boolean;
  /** OpenGraph's type-specific properties (profile:username, article:published_time…). */
  properties: readonly (readonly [string, string])[];
  /** The member's feeds, on their profile. */
  feeds: { rss: string; atom: string; title: string } | null;
}

const SITE_NAME = 'Perch';

const property = (name: string, content: string | number): Html =>
  html`<meta property="${name}" content="${content}" />`;

function imageTags(image: PreviewImage, large: boolean): Html {
  return html`${property('og:image', image.url)}
    ${image.size && [property('og:image:width', image.size.width), '\n', property('og:image:height', image.size.height), '\n']}${property('og:image:alt', image.alt)}
    <meta name="twitter:card" content="${large ? 'summary_large_image' : 'summary'}" />
    <meta name="twitter:image:alt" content="${image.alt}" />`;
}

/** The head's tags for a page (the shell has the charset, viewport and icons). */
export function headTags(meta: PageMeta): Html {
  return html`<title>${meta.title}</title>
    <meta name="description" content="${meta.description}" />
    ${meta.noindex && html`<meta name="robots" content="noindex" /> `}<link
      rel="canonical"
      href="${meta.canonical}"
    />
    ${
      meta.feeds &&
      html`<link
          rel="alternate"
          type="application/rss+xml"
          title="${meta.feeds.title}"
          href="${meta.feeds.rss}"
        />
        <link
          rel="alternate"
          type="application/atom+xml"
          title="${meta.feeds.title}"
          href="${meta.feeds.atom}"
        /> `
    }${property('og:type', meta.type)}
    ${property('og:site_name', SITE_NAME)} ${property('og:title', meta.title)}
    ${property('og:description', meta.description)} ${property('og:url', meta.canonical)}
    ${meta.properties.map(([name, content]) => [property(name, content), '\n'])}${
      meta.image
        ? imageTags(meta.image, meta.largeImage)
        : html`<meta name="twitter:card" content="summary" />`
    }
    <meta name="twitter:title" content="${meta.title}" />
    <meta name="twitter:description" content="${meta.description}" />`;
}
