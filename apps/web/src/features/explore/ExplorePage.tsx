import { PageHeader } from '../layout/PageHeader';

export function ExplorePage() {
  return (
    <section className="page">
      <PageHeader title="Explore" />
    </section>
  );
}
