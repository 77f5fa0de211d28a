import { Link } from 'react-router';

export function Header() {
  return (
    <header>
      <nav className="navbar navbar-dark bg-dark px-3">
        <Link to="/" className="navbar-brand">Shop</Link>
      </nav>
    </header>
  );
}
