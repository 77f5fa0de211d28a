import type { Address, AddressBody } from '@shop/contracts';
import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import ListGroup from 'react-bootstrap/ListGroup';
import Modal from 'react-bootstrap/Modal';
import { useNavigate } from 'react-router';
import { toast } from '../../../lib/toast';
import { paths } from '../../../lib/paths';
import { useStore, type ShippingAddress } from '../../../lib/store';
import { CheckoutSteps } from '../../../components/CheckoutSteps';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { LoadingBox } from '../../../components/LoadingBox';
import { MessageBox } from '../../../components/MessageBox';
import { PageTitle } from '../../../components/PageTitle';
import { getErrorMessage } from '../../../lib/api-client';
import { useCreateAddress } from '../api/create-address';
import { useDeleteAddress } from '../api/delete-address';
import { useAddresses } from '../api/get-addresses';
import { useSetDefaultAddress } from '../api/set-default-address';
import { useUpdateAddress } from '../api/update-address';
import { AddressForm } from '../components/AddressForm';

function toShippingAddress(a: Address): ShippingAddress {
  return { _id: a._id, fullName: a.fullName, address: a.address, city: a.city, postalCode: a.postalCode, country: a.country };
}

function formatAddress(a: Pick<Address, 'address' | 'city' | 'postalCode' | 'country'>) {
  return `${a.address}, ${a.city}, ${a.postalCode}, ${a.country}`;
}

export default function ShippingPage() {
  const { state, dispatch } = useStore();
  const navigate = useNavigate();
  const addresses = useAddresses();
  const createAddress = useCreateAddress();
  const updateAddress = useUpdateAddress();
  const deleteAddress = useDeleteAddress();
  const setDefault = useSetDefaultAddress();

  const [isAdding, setIsAdding] = useState(false);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [editing, setEditing] = useState<Address | null>(null);
  const [deleting, setDeleting] = useState<Address | null>(null);

  const list = addresses.data ?? [];
  const savedId = state.cart.shippingAddress?._id;
  const chosen =
    list.find((a) => a._id === selectedId) ?? list.find((a) => a._id === savedId) ?? list.find((a) => a.isDefault) ?? list[0] ?? null;
  const showForm = isAdding || (addresses.isSuccess && list.length === 0) || addresses.isError;

  const continueWith = (address: Address) => {
    dispatch({ type: 'SAVE_SHIPPING_ADDRESS', payload: toShippingAddress(address) });
    void navigate(paths.payment);
  };

  const onAdd = async (body: AddressBody) => {
    try {
      const created = await createAddress.mutateAsync(body);
      setIsAdding(false);
      continueWith(created);
    } catch {
      /* shown from createAddress.error */
    }
  };

  const onEdit = async (body: AddressBody) => {
    if (!editing) return;
    try {
      const updated = await updateAddress.mutateAsync({ id: editing._id, body: { ...body, isDefault: editing.isDefault } });
      if (savedId === updated._id) dispatch({ type: 'SAVE_SHIPPING_ADDRESS', payload: toShippingAddress(updated) });
      setEditing(null);
      toast.success('Address updated successfully');
    } catch {
      /* shown from updateAddress.error */
    }
  };

  const onDelete = async () => {
    if (!deleting) return;
    try {
      const res = await deleteAddress.mutateAsync(deleting._id);
      if (savedId === deleting._id) dispatch({ type: 'SAVE_SHIPPING_ADDRESS', payload: null });
      if (selectedId === deleting._id) setSelectedId(null);
      toast.success(res.message);
    } catch (error) {
      toast.error(getErrorMessage(error));
    } finally {
      setDeleting(null);
    }
  };

  const onSetDefault = (address: Address) => {
    setDefault.mutate(address._id, { onError: (error) => toast.error(getErrorMessage(error)) });
  };

  return (
    <div>
      <CheckoutSteps step={2} />
      <div className="container-sm" style={{ maxWidth: 640 }}>
        <PageTitle title="Shipping Address" />
        {addresses.isPending ? (
          <LoadingBox />
        ) : (
          <>
            {addresses.isError && <MessageBox variant="danger">Error loading addresses</MessageBox>}
            {!showForm && chosen && (
              <Form
                onSubmit={(e) => {
                  e.preventDefault();
                  continueWith(chosen);
                }}
              >
                <fieldset>
                  <legend className="h5">Choose a shipping address</legend>
                  <ListGroup className="mb-3">
                    {list.map((a) => (
                      <ListGroup.Item key={a._id} className="d-flex flex-wrap align-items-start gap-2">
                        <Form.Check
                          type="radio"
                          name="addressId"
                          id={`address-${a._id}`}
                          className="flex-grow-1"
                          checked={chosen._id === a._id}
                          onChange={() => setSelectedId(a._id)}
                          label={
                            <span>
                              <strong>{a.fullName}</strong> {a.isDefault && <Badge bg="secondary">Default</Badge>}
                              <br />
                              {formatAddress(a)}
                            </span>
                          }
                        />
                        <div className="d-flex gap-1">
                          {!a.isDefault && (
                            <Button size="sm" variant="outline-secondary" onClick={() => onSetDefault(a)} disabled={setDefault.isPending} aria-label={`Set ${formatAddress(a)} as default`}>
                              Set as Default
                            </Button>
                          )}
                          <Button size="sm" variant="outline-primary" onClick={() => { updateAddress.reset(); setEditing(a); }} aria-label={`Edit ${formatAddress(a)}`}>
                            Edit
                          </Button>
                          <Button size="sm" variant="outline-danger" onClick={() => setDeleting(a)} aria-label={`Delete ${formatAddress(a)}`}>
                            Delete
                          </Button>
                        </div>
                      </ListGroup.Item>
                    ))}
                  </ListGroup>
                </fieldset>
                <div className="d-flex flex-wrap gap-2">
                  <Button type="submit" variant="primary">
                    Continue
                  </Button>
                  <Button type="button" variant="outline-secondary" onClick={() => { createAddress.reset(); setIsAdding(true); }}>
                    Add New Address
                  </Button>
                </div>
              </Form>
            )}
            {showForm && (
              <section aria-labelledby="new-address-title">
                <h2 id="new-address-title" className="h5">
                  Add a new address
                </h2>
                <AddressForm
                  submitLabel="Continue"
                  isPending={createAddress.isPending}
                  error={createAddress.error}
                  showDefaultOption={list.length > 0}
                  onSubmit={onAdd}
                  onCancel={list.length > 0 ? () => setIsAdding(false) : undefined}
                />
              </section>
            )}
          </>
        )}
      </div>

      <Modal show={Boolean(editing)} onHide={() => setEditing(null)} centered aria-labelledby="edit-address-title">
        <Modal.Header closeButton>
          <Modal.Title id="edit-address-title" as="h2" className="h5">
            Edit Address
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {editing && (
            <AddressForm
              key={editing._id}
              defaultValues={editing}
              submitLabel="Save Changes"
              isPending={updateAddress.isPending}
              error={updateAddress.error}
              onSubmit={onEdit}
              onCancel={() => setEditing(null)}
            />
          )}
        </Modal.Body>
      </Modal>

      <ConfirmDialog show={Boolean(deleting)} title="Delete Address" isPending={deleteAddress.isPending} onConfirm={() => void onDelete()} onCancel={() => setDeleting(null)}>
        Are you sure you want to delete this address?
        {deleting && <div className="mt-2 text-body-secondary">{formatAddress(deleting)}</div>}
      </ConfirmDialog>
    </div>
  );
}
