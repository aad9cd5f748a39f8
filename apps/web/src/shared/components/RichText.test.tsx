import { findEntities, type Entity } from '@perch/contract';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { RichText } from './RichText';

/** The entities the server would answer: every found mention is taken to be a member. */
function entitiesOf(text: string): Entity[] {
  return findEntities(text).map((found) =>
    found.type === 'tag' ? found : { ...found, userId: `u-${found.username}` },
  );
}

function renderText(text: string, entities: Entity[] = entitiesOf(text)) {
  return render(
    <MemoryRouter>
      <p data-testid="text">
        <RichText text={text} entities={entities} />
      </p>
    </MemoryRouter>,
  );
}

describe('RichText', () => {
  it('links tags to their page and mentions to the profile, as written', () => {
    renderText('Baking with @Alice_B today #SourDough!');

    expect(screen.getByRole('link', { name: '#SourDough' })).toHaveAttribute(
      'href',
      '/tags/sourdough',
    );
    expect(screen.getByRole('link', { name: '@Alice_B' })).toHaveAttribute(
      'href',
      '/profile/Alice_B',
    );
    expect(screen.getByTestId('text').textContent).toBe('Baking with @Alice_B today #SourDough!');
  });

  it('shows text without entities as plain text, markup and line breaks included', () => {
    renderText('Line one\n<b>not bold</b> #notatag', []);

    const text = screen.getByTestId('text');
    expect(text.textContent).toBe('Line one\n<b>not bold</b> #notatag');
    expect(text.querySelector('b')).toBeNull();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it('cuts at UTF-16 offsets, so emoji (surrogate pairs) before an entity keep it whole', () => {
    const text = '😀🎉 #café with @bob 👋🏽\nbye';
    const entities = entitiesOf(text);
    // '😀' and '🎉' are two code units each: the tag starts at 5, not 3.
    expect(entities[0]).toMatchObject({ type: 'tag', start: 5, end: 10 });
    renderText(text, entities);

    expect(screen.getByRole('link', { name: '#café' })).toHaveAttribute('href', '/tags/caf%C3%A9');
    expect(screen.getByRole('link', { name: '@bob' })).toHaveAttribute('href', '/profile/bob');
    expect(screen.getByTestId('text').textContent).toBe(text);
  });

  it('skips entities that do not fit the text instead of cutting it wrongly', () => {
    const entities: Entity[] = [
      { type: 'tag', tag: 'late', start: 4, end: 40 },
      { type: 'mention', username: 'ann', userId: 'u-ann', start: 0, end: 4 },
    ];
    renderText('@ann hi', entities);

    expect(screen.getAllByRole('link')).toHaveLength(1);
    expect(screen.getByTestId('text').textContent).toBe('@ann hi');
  });
});
