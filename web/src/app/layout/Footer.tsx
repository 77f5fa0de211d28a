import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useCategories } from '../../features/products/api/get-categories';
import { paths, searchUrl } from '../../lib/paths';
import { BRAND } from './brand';
import { FacebookIcon, InstagramIcon, XIcon, YoutubeIcon } from './social-icons';
import { Newsletter } from './Newsletter';

const FOOTER_CATEGORY_COUNT = 3;
const VIEW_ALL_THRESHOLD = 4;

function Column({ title, children }: { title: string; children: ReactNode }) {
  const id = `footer-${title.toLowerCase().replace(/\s+/g, '-')}`;
  return (
    <nav aria-labelledby={id}>
      <h2 id={id} className="h6 text-uppercase shop-footer-heading">
        {title}
      </h2>
      <ul className="list-unstyled mb-0 small">{children}</ul>
    </nav>
  );
}

const Item = ({ to, children }: { to: string; children: ReactNode }) => (
  <li className="mb-1">
    <Link to={to}>{children}</Link>
  </li>
);

const SOCIAL = [
  { label: 'Facebook', href: 'https://www.facebook.com/', icon: <FacebookIcon /> },
  { label: 'X (Twitter)', href: 'https://x.com/', icon: <XIcon /> },
  { label: 'Instagram', href: 'https://www.instagram.com/', icon: <InstagramIcon /> },
  { label: 'YouTube', href: 'https://www.youtube.com/', icon: <YoutubeIcon /> },
];

/**
 * The ways to pay the shop accepts: PayPal, the one method the Payment step offers (Stripe is shown
 * there, disabled). No card marks: cards are not taken directly. Without PayPal credentials the demo
 * provider stands in for PayPal at checkout (a clearly labelled "demo PayPal" button on the order),
 * so the method is still PayPal and the footer says the same: it never promises a method the
 * checkout does not offer.
 */
const PAYMENT_METHODS = ['PayPal'] as const;

/** Shop (All Products, the first 3 categories, View All Categories when there are more than 4), Customer Service, About, social, payment, newsletter. */
export function Footer() {
  const { data: categories = [] } = useCategories();
  const year = new Date().getFullYear();
  return (
    <footer className="shop-footer mt-auto" data-bs-theme="dark">
      <div className="container py-4">
        <div className="row g-4">
          <div className="col-6 col-md-3 col-lg-2">
            <Column title="Shop">
              <Item to={paths.search}>All Products</Item>
              {categories.slice(0, FOOTER_CATEGORY_COUNT).map((category) => (
                <Item key={category} to={searchUrl({ category })}>
                  {category}
                </Item>
              ))}
              {categories.length > VIEW_ALL_THRESHOLD && <Item to={paths.search}>View All Categories</Item>}
            </Column>
          </div>
          <div className="col-6 col-md-3 col-lg-2">
            <Column title="Customer Service">
              <Item to={paths.page('contact')}>Contact Us</Item>
              <Item to={paths.page('faq')}>FAQ</Item>
              <Item to={paths.page('shipping')}>Shipping Policy</Item>
              <Item to={paths.page('returns')}>Returns &amp; Refunds</Item>
              <Item to={paths.orderHistory}>Track Your Order</Item>
            </Column>
          </div>
          <div className="col-6 col-md-3 col-lg-2">
            <Column title="About">
              <Item to={paths.page('about')}>About Us</Item>
              <Item to={paths.page('terms')}>Terms of Service</Item>
              <Item to={paths.privacy}>Privacy Policy</Item>
            </Column>
          </div>
          <div className="col-6 col-md-3 col-lg-2">
            <h2 className="h6 text-uppercase shop-footer-heading">Follow Us</h2>
            <ul className="list-unstyled d-flex flex-wrap gap-2 mb-0">
              {SOCIAL.map((s) => (
                <li key={s.label}>
                  <a href={s.href} className="shop-social-link" aria-label={s.label} title={s.label} target="_blank" rel="noopener noreferrer">
                    {s.icon}
                  </a>
                </li>
              ))}
            </ul>
          </div>
          <div className="col-12 col-lg-4">
            <Newsletter />
          </div>
        </div>
        <hr className="my-4" />
        <div className="d-flex flex-column flex-md-row justify-content-between align-items-center gap-2 small">
          {/* The year on the server may not be the shopper's on New Year's Eve (time zone). */}
          <p className="mb-0" suppressHydrationWarning>
            &copy; {year} {BRAND}. All rights reserved.
          </p>
          <ul className="list-unstyled d-flex flex-wrap gap-2 mb-0" aria-label="Payment methods we accept">
            {PAYMENT_METHODS.map((method) => (
              <li key={method} className="shop-payment-badge">
                {method}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  );
}
