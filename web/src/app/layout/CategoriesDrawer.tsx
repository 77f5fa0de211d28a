import Offcanvas from 'react-bootstrap/Offcanvas';
import { Link } from 'react-router';
import { LoadingBox } from '../../components/LoadingBox';
import { MessageBox } from '../../components/MessageBox';
import { useCategories } from '../../features/products/api/get-categories';
import { searchUrl } from '../../lib/paths';

/** Side drawer listing every category as /search?category={category}. */
export default function CategoriesDrawer({ show, onHide }: { show: boolean; onHide: () => void }) {
  const { data: categories, isPending, isError } = useCategories();
  return (
    <Offcanvas show={show} onHide={onHide} placement="start" aria-labelledby="categories-drawer-title">
      <Offcanvas.Header closeButton closeLabel="Close categories">
        <Offcanvas.Title id="categories-drawer-title">Categories</Offcanvas.Title>
      </Offcanvas.Header>
      <Offcanvas.Body>
        {isPending ? (
          <LoadingBox label="Loading categories..." />
        ) : isError ? (
          <MessageBox variant="danger">Categories could not be loaded. Please try again later.</MessageBox>
        ) : categories.length === 0 ? (
          <p className="text-body-secondary">No categories yet.</p>
        ) : (
          <nav aria-label="Categories">
            <ul className="list-unstyled mb-0">
              {categories.map((category) => (
                <li key={category}>
                  <Link to={searchUrl({ category })} className="d-block py-2 px-1 shop-drawer-link" onClick={onHide}>
                    {category}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        )}
      </Offcanvas.Body>
    </Offcanvas>
  );
}
