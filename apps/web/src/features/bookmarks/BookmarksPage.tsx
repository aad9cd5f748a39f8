import { PageHeader } from '../layout/PageHeader';

export function BookmarksPage() {
  return (
    <section className="page">
      <PageHeader title="Bookmarks" />
    </section>
  );
}
