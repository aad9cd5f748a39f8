import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { parse, type HTMLElement } from 'node-html-parser';
import { expect } from 'vitest';
import { call } from '../helpers';

/** An element's text as a reader sees it: runs of whitespace as one space, none at the ends. */
export const textOf = (element: HTMLElement | null | undefined): string | undefined =>
  element?.textContent.replace(/\s+/g, ' ').trim();

export interface Page {
  response: LightMyRequestResponse;
  document: HTMLElement;
  /** The content of a <meta> by its property (OpenGraph) or name; undefined when absent. */
  meta: (key: string) => string | undefined;
  /** Every href of the page's links with this text. */
  linksNamed: (text: string) => string[];
}

/** Reads a public page as a reader without an account, and parses it. */
export async function readPage(
  app: FastifyInstance,
  url: string,
  headers: Record<string, string> = {},
): Promise<Page> {
  const response = await call(app, { method: 'GET', url, headers });
  const document = parse(response.body);
  const meta = (key: string) =>
    document.querySelector(`meta[property="${key}"]`)?.getAttribute('content') ??
    document.querySelector(`meta[name="${key}"]`)?.getAttribute('content');
  const linksNamed = (text: string) =>
    document
      .querySelectorAll('a')
      .filter((a) => textOf(a) === text)
      .map((a) => a.getAttribute('href') ?? '');
  return { response, document, meta, linksNamed };
}

/** Asserts a page answered as HTML with this status. */
export function expectHtml(page: Page, status: number): void {
  expect(page.response.statusCode, page.response.body).toBe(status);
  expect(page.response.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(page.document.querySelector('html')?.getAttribute('lang')).toBe('en');
}

/** Asserts the "nothing to see here" page. */
export function expectNotFound(page: Page): void {
  expectHtml(page, 404);
  expect(textOf(page.document.querySelector('h1'))).toBe('Nothing to see here');
  expect(page.document.querySelector('#root')?.getAttribute('data-public-page')).toBe('not-found');
  expect(page.meta('robots')).toBe('noindex');
}

/** Sets a member's privacy settings through the API. */
export async function setPrivacy(
  app: FastifyInstance,
  token: string,
  settings: { publicProfile?: boolean; noindex?: boolean },
): Promise<void> {
  const response = await call(app, {
    method: 'PATCH',
    url: '/api/account/privacy',
    token,
    payload: settings,
  });
  expect(response.statusCode).toBe(200);
}
