import { Link } from 'react-router';
import { PageTitle } from '../../../components/PageTitle';
import { formatLongDate } from '../../../lib/format';

/** The static privacy page (SPEC section 2, "Privacy page"). */
export default function PrivacyPage() {
  return (
    <article className="shop-prose mx-auto">
      <PageTitle title="Privacy Policy" />
      {/* Today's date: the server's day may not be the shopper's (time zone), so it may differ on hydration. */}
      <p className="text-body-secondary" suppressHydrationWarning>
        Last updated: {formatLongDate(new Date())}
      </p>
      <p>
        This page explains which cookies and browser storage this shop uses, what data we keep about you, and the choices you have. We only keep what we need to run
        the shop and your account.
      </p>

      <section aria-labelledby="privacy-cookies">
        <h2 id="privacy-cookies" className="h4 mt-4">
          Cookies we use
        </h2>
        <ul>
          <li>
            <strong>Authentication cookies.</strong> When you sign in we set HTTP-only cookies that keep you signed in. Scripts on the page cannot read them, and
            they are removed when you sign out.
          </li>
          <li>
            <strong>Session cookies.</strong> These keep track of your current visit, including a guest chat session when you chat with us without an account.
          </li>
          <li>
            <strong>Preference cookies.</strong> These remember your choices, such as the light or dark display theme.
          </li>
        </ul>
      </section>

      <section aria-labelledby="privacy-stored">
        <h2 id="privacy-stored" className="h4 mt-4">
          Data stored in your browser and on our servers
        </h2>
        <ul>
          <li>
            <strong>Shopping cart.</strong> If you are not signed in, your cart is kept in your browser&apos;s local storage. Once you sign in, it is stored on
            our servers with your account, so it follows you between devices.
          </li>
          <li>
            <strong>Display mode.</strong> Your light or dark mode choice is stored in your browser.
          </li>
          <li>
            <strong>Payment method.</strong> The payment method you select at checkout is stored in your browser for your next order. We never store your card
            or wallet credentials; payments are handled by the payment provider.
          </li>
        </ul>
      </section>

      <section aria-labelledby="privacy-chat">
        <h2 id="privacy-chat" className="h4 mt-4">
          Chat messages
        </h2>
        <p>
          Messages you send through the chat widget, and the replies from our team or our AI assistant, are stored on our servers so that we can answer you and
          improve our service. Guests provide a name and e-mail address before chatting; these are stored with the conversation.
        </p>
      </section>

      <section aria-labelledby="privacy-rights">
        <h2 id="privacy-rights" className="h4 mt-4">
          Your rights
        </h2>
        <p>You have the right to:</p>
        <ul>
          <li>access the personal data we hold about you;</li>
          <li>have incorrect data corrected;</li>
          <li>have your data deleted;</li>
          <li>object to how we process your data;</li>
          <li>ask us to restrict the processing of your data;</li>
          <li>receive your data in a portable form and have it transferred to another service;</li>
          <li>withdraw your consent at any time.</li>
        </ul>
      </section>

      <section aria-labelledby="privacy-clearing">
        <h2 id="privacy-clearing" className="h4 mt-4">
          Clearing your data
        </h2>
        <p>
          Signing out removes your session cookies and clears your cart, shipping address and payment choice from this browser. You can also delete cookies and
          local storage at any time in your browser settings. To have your account data deleted from our servers, contact us.
        </p>
      </section>

      <section aria-labelledby="privacy-contact">
        <h2 id="privacy-contact" className="h4 mt-4">
          Contact
        </h2>
        <p>
          If you have questions about this policy or want to exercise your rights, contact us at <a href="mailto:privacy@example.com">privacy@example.com</a>.
        </p>
      </section>

      <p className="mt-4">
        <Link to="/">Back to the shop</Link>
      </p>
    </article>
  );
}
