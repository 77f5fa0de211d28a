import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { PageLoading } from '../../../components/PageLoading';
import { PageTitle } from '../../../components/PageTitle';
import { ProductCard } from '../../../components/ProductCard';
import { getErrorMessage } from '../../../lib/api-client';
import { useProducts } from '../api/get-products';

/**
 * The first two rows on a phone (2 per row) are in view: they load at once with high priority, one
 * of them is the largest paint (sub-pixel widths can make the second row's image the "largest").
 * The rest load lazily.
 */
const EAGER_CARDS = 4;

// Plain Bootstrap markup for alerts: the home page is in the initial bundle, react-bootstrap's Alert
// (with its transitions) is not.
export default function HomePage() {
  const { data: products, isPending, error } = useProducts();
  return (
    <>
      <div className="d-flex flex-wrap align-items-baseline justify-content-between gap-2">
        <PageTitle title="Smart Finds. Joyfully Delivered" />
        <Link to={paths.search} className="text-nowrap">
          See all products <span aria-hidden="true">→</span>
        </Link>
      </div>
      {isPending ? (
        <PageLoading />
      ) : error ? (
        <div className="alert alert-danger" role="alert">
          {getErrorMessage(error)}
        </div>
      ) : products.length === 0 ? (
        <div className="alert alert-info" role="status">
          No Product Found
        </div>
      ) : (
        <div className="row row-cols-2 row-cols-md-3 row-cols-lg-4 g-3">
          {products.map((product, i) => (
            <div className="col" key={product._id}>
              <ProductCard product={product} isPriority={i < EAGER_CARDS} />
            </div>
          ))}
        </div>
      )}
    </>
  );
}
