import { ToastContainer } from 'react-toastify';
import 'react-toastify/dist/ReactToastify.css';
import { useSingleToast } from './use-single-toast';

function SingleToast() {
  useSingleToast();
  return null;
}

/**
 * The toast container (a lazy chunk, mounted by ToastHost). SingleToast comes first so its
 * subscription is in place before the container mounts and shows the toasts that waited for it.
 */
export default function Toasts() {
  return (
    <>
      <SingleToast />
      <ToastContainer position="bottom-center" />
    </>
  );
}
