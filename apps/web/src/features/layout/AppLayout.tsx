import { useState } from 'react';
import { Outlet } from 'react-router-dom';
import { useOfflineQueueSender } from '../offlineQueue';
import { usePendingDeletes } from '../../entities/post/posts.queries';
import { BottomBar } from './BottomBar';
import { CreatePostModal } from './CreatePostModal';
import { Header } from './Header';
import { RightPanel } from './RightPanel';
import { Sidebar } from './Sidebar';
import './layout.css';

/** Shell of every signed-in page: header, left sidebar, content, right panel, bottom bar. */
export function AppLayout() {
  const [composerOpen, setComposerOpen] = useState(false);
  usePendingDeletes();
  useOfflineQueueSender();
  const openComposer = () => {
    setComposerOpen(true);
  };

  return (
    <div className="app-shell">
      <a className="skip-link" href="#main-content">
        Skip to content
      </a>
      <Header />
      <div className="app-shell__body">
        <Sidebar onCreatePost={openComposer} />
        <main id="main-content" className="app-shell__main" tabIndex={-1}>
          <Outlet />
        </main>
        <RightPanel />
      </div>
      <BottomBar onCreatePost={openComposer} />
      <CreatePostModal
        open={composerOpen}
        onClose={() => {
          setComposerOpen(false);
        }}
      />
    </div>
  );
}
