import type { SEARCH_TAGS } from '@shop/contracts';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { searchUrl } from '../../lib/paths';
import { MenuIcon } from './icons';

type SearchTag = (typeof SEARCH_TAGS)[number];

export const TAG_LINKS: readonly { tag: SearchTag; label: string }[] = [
  { tag: 'todays-deal', label: 'Todays Deal' },
  { tag: 'gifts', label: 'Gifts' },
  { tag: 'on-sale', label: 'On Sale' },
];

// The drawer (and Bootstrap's offcanvas code) loads when first opened.
const CategoriesDrawer = lazy(() => import('./CategoriesDrawer'));

/** The strip under the header: the categories drawer toggle and the tag links. */
export function SubHeader() {
  const [isDrawerOpen, setIsDrawerOpen] = useState(false);
  const [hasOpened, setHasOpened] = useState(false);

  const openDrawer = () => {
    setHasOpened(true);
    setIsDrawerOpen(true);
  };

  return (
    <nav className="shop-subheader" data-bs-theme="dark" aria-label="Shop sections">
      {/* Wraps instead of scrolling sideways: every link stays visible on a phone. */}
      <div className="container-fluid d-flex flex-wrap align-items-center gap-1">
        <button type="button" className="btn btn-link shop-subheader-link d-flex align-items-center gap-1" onClick={openDrawer} aria-haspopup="dialog" aria-expanded={isDrawerOpen}>
          <MenuIcon />
          <span>All Categories</span>
        </button>
        {TAG_LINKS.map(({ tag, label }) => (
          <Link key={tag} to={searchUrl({ tag })} className="shop-subheader-link">
            {label}
          </Link>
        ))}
      </div>
      {hasOpened && (
        <Suspense fallback={null}>
          <CategoriesDrawer show={isDrawerOpen} onHide={() => setIsDrawerOpen(false)} />
        </Suspense>
      )}
    </nav>
  );
}
