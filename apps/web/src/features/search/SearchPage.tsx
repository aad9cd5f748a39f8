import type { SearchSort } from '@perch/contract';
import { useEffect, useId, useMemo, useRef, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { tabId, tabPanelId, Tabs, type TabItem } from '../../shared/components/Tabs';
import { badRequestMessage } from '../../shared/lib/api';
import { PageHeader } from '../../shared/components/PageHeader';
import { DEFAULT_SORT, type FeedSource } from '../../entities/post/postKeys';
import { usePostFeed } from '../../entities/post/posts.queries';
import { TagList } from '../tags';
import { TrendingTags } from '../tags';
import { useTagSearch } from '../../entities/tag/tags.queries';
import { MemberResults } from './MemberResults';
import { PostResults } from './PostResults';
import { SearchBox } from './SearchBox';
import {
  parseSort,
  parseTab,
  useMemberSearch,
  type SearchTab,
} from '../../entities/member/search.queries';
import './search.css';

const TABS: TabItem<SearchTab>[] = [
  { value: 'posts', label: 'Posts' },
  { value: 'members', label: 'Members' },
  { value: 'tags', label: 'Tags' },
];

interface SearchState {
  q: string;
  tab: SearchTab;
  sort: SearchSort;
}

/**
 * `/search?q=&tab=posts|members|tags&sort=latest|top`: the address holds the whole search, so
 * that it can be shared, reloaded and gone back to. Without `q` the page offers trending tags.
 */
export function SearchPage() {
  const [params, setParams] = useSearchParams();
  const idBase = useId();
  const q = (params.get('q') ?? '').trim();
  const tab = parseTab(params.get('tab'));
  const sort = parseSort(params.get('sort'));
  const source = useMemo(() => ({ kind: 'search', q, sort }) satisfies FeedSource, [q, sort]);

  // Only the shown tab asks the server; the page reads its error to explain a refused search.
  const posts = usePostFeed(source, DEFAULT_SORT, { enabled: q !== '' && tab === 'posts' });
  const members = useMemberSearch(q, q !== '' && tab === 'members');
  const tags = useTagSearch(q, q !== '' && tab === 'tags');
  const shown = { posts, members, tags }[tab];
  const problem = q === '' ? null : badRequestMessage(shown.error);

  // A tab chosen right after a search, before the page has rendered it, must keep that search:
  // each change starts from the last one asked for, not from the state this render read.
  const asked = useRef<SearchState>({ q, tab, sort });
  useEffect(() => {
    asked.current = { q, tab, sort };
  }, [q, tab, sort]);

  const go = (next: Partial<SearchState>, replace: boolean) => {
    const state: SearchState = { ...asked.current, ...next };
    asked.current = state;
    const search = new URLSearchParams();
    if (state.q !== '') search.set('q', state.q);
    if (state.tab !== 'posts') search.set('tab', state.tab);
    if (state.sort !== 'latest') search.set('sort', state.sort);
    setParams(search, { replace });
  };

  let results: ReactNode = null;
  if (problem === null && tab === 'posts') {
    results = (
      <PostResults
        source={source}
        onSortChange={(next) => {
          go({ sort: next }, true);
        }}
      />
    );
  } else if (problem === null && tab === 'members') {
    results = <MemberResults query={members} />;
  } else if (problem === null && tags.isSuccess) {
    results =
      tags.data.tags.length === 0 ? (
        <p className="feed__state feed__state--empty">No tags start with {q}.</p>
      ) : (
        <TagList tags={tags.data.tags} label="Matching tags" />
      );
  } else if (problem === null && tags.isPending) {
    results = (
      <p className="feed__state" role="status">
        Searching tags…
      </p>
    );
  } else if (problem === null && tags.isError) {
    results = (
      <p className="feed__state feed__state--error" role="alert">
        Tags could not be loaded.
      </p>
    );
  }

  return (
    <section className="page search-page">
      <PageHeader title="Search" />
      {/* A new search in the address starts the box afresh. */}
      <SearchBox
        key={q}
        initial={q}
        problem={problem}
        onSearch={(next) => {
          go({ q: next }, false);
        }}
      />
      {q === '' ? (
        <TrendingTags showEmpty />
      ) : (
        <>
          <Tabs
            label="Search results"
            idBase={idBase}
            items={TABS}
            selected={tab}
            onSelect={(next) => {
              go({ tab: next }, true);
            }}
          />
          {TABS.map(({ value }) => (
            <div
              key={value}
              role="tabpanel"
              id={tabPanelId(idBase, value)}
              aria-labelledby={tabId(idBase, value)}
              hidden={value !== tab}
              tabIndex={0}
              className="search-page__panel"
            >
              {value === tab && results}
            </div>
          ))}
        </>
      )}
    </section>
  );
}
