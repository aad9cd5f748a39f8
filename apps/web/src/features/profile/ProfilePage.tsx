import { useParams } from 'react-router-dom';
import { PageHeader } from '../layout/PageHeader';

export function ProfilePage() {
  const { username = '' } = useParams();
  return (
    <section className="page">
      <PageHeader title="Profile" subtitle={`@${username}`} />
    </section>
  );
}
