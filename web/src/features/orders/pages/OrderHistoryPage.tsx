import Button from 'react-bootstrap/Button';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../../app/paths';
import { LoadingBox } from '../../../components/LoadingBox';
import { MessageBox } from '../../../components/MessageBox';
import { PageTitle } from '../../../components/PageTitle';
import { getErrorMessage } from '../../../lib/api-client';
import { useMyOrders } from '../api/get-my-orders';
import { OrdersTable } from '../components/OrdersTable';

export default function OrderHistoryPage() {
  const navigate = useNavigate();
  const orders = useMyOrders();

  return (
    <div>
      <PageTitle title="Order History" />
      {orders.isPending ? (
        <LoadingBox />
      ) : orders.isError ? (
        <MessageBox variant="danger">{getErrorMessage(orders.error)}</MessageBox>
      ) : orders.data.length === 0 ? (
        <MessageBox>
          You have no orders yet. <Link to={paths.home}>Go Shopping</Link>
        </MessageBox>
      ) : (
        <OrdersTable
          orders={orders.data}
          actions={(order) => (
            <Button type="button" variant="light" size="sm" onClick={() => void navigate(paths.order(order._id))} aria-label={`Details of order ${order._id}`}>
              Details
            </Button>
          )}
        />
      )}
    </div>
  );
}
