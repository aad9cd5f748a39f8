import { PageHeader } from '../layout/PageHeader';

export function HomePage() {
  return (
    <section className="page">
      <PageHeader title="Home" />
    </section>
  );
}
