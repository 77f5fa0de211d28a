export function Footer() {
  return <footer className="text-center py-3">All rights reserved</footer>;
}
