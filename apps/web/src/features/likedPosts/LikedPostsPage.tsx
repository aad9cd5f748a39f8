import { PageHeader } from '../layout/PageHeader';

export function LikedPostsPage() {
  return (
    <section className="page">
      <PageHeader title="Liked Posts" />
    </section>
  );
}
