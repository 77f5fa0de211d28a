import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { ListSkeleton } from '../../../components/Skeleton';
import { MessageBox } from '../../../components/MessageBox';
import { PageTitle } from '../../../components/PageTitle';
import { getErrorMessage } from '../../../lib/api-client';
import { useMyOrders } from '../api/get-my-orders';
import { OrderDetailsButton, OrdersTable } from '../components/OrdersTable';

export default function OrderHistoryPage() {
  const orders = useMyOrders();

  return (
    <div>
      <PageTitle title="Order History" />
      {orders.isPending ? (
        <ListSkeleton />
      ) : orders.isError ? (
        <MessageBox variant="danger">{getErrorMessage(orders.error)}</MessageBox>
      ) : orders.data.length === 0 ? (
        <MessageBox>
          You have no orders yet. <Link to={paths.home}>Go Shopping</Link>
        </MessageBox>
      ) : (
        <OrdersTable
          orders={orders.data}
          actions={(order) => <OrderDetailsButton order={order} />}
        />
      )}
    </div>
  );
}
