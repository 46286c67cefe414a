// linked_list — pointer-chasing through structures whose pointers live in device memory. The host
// builds them with device addresses and copies the node structs over with cudaMemcpy:
//   - 300 singly linked lists (1 to 11 nodes each) whose nodes are scattered at random over 12
//     separate allocations, each node pointing to its values in a 13th allocation; one thread per
//     list walks it from a head pointer read from a device array, so every node access goes
//     through a pointer loaded from memory;
//   - a balanced binary search tree of 1 023 keys spread over 3 allocations, searched by 2 000
//     threads (half the queries hit).
// Sums and search results are integers, compared exactly.
#define APP_NAME "linked_list"
#include "app.h"

#include <algorithm>
#include <vector>

struct Node {
    Node *next;         // device address of the next node; null ends the list
    const int *payload; // device address of this node's values
    int count;          // values at payload
    int key;            // multiplies each value
};

struct TreeNode {
    TreeNode *left, *right; // device addresses of the children, null if none
    int key, value;
};

__global__ void walk_lists(Node *const *heads, int nlists, int *sums, int *lengths)
{
    int l = blockIdx.x * blockDim.x + threadIdx.x;
    if (l >= nlists)
        return;
    int s = 0, len = 0;
    for (const Node *p = heads[l]; p != nullptr; p = p->next) {
        for (int k = 0; k < p->count; ++k)
            s += p->key * p->payload[k];
        ++len;
    }
    sums[l] = s;
    lengths[l] = len;
}

// found[q] = the value stored under queries[q], or -1.
__global__ void tree_search(const TreeNode *root, const int *queries, int nq, int *found)
{
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= nq)
        return;
    int key = queries[q], result = -1;
    const TreeNode *p = root;
    while (p != nullptr) {
        int k = p->key;
        if (key == k) {
            result = p->value;
            break;
        }
        p = key < k ? p->left : p->right;
    }
    found[q] = result;
}

// Builds the balanced tree over sorted keys[lo, hi) into host images of the chunks; returns the
// device address of the subtree's root. Node i of the in-order sequence lives at chunk i % nchunks,
// slot i / nchunks, so parent and child are in different allocations.
static TreeNode *build_tree(int lo, int hi, int nchunks, std::vector<std::vector<TreeNode>> &img,
                            const std::vector<TreeNode *> &base)
{
    if (lo >= hi)
        return nullptr;
    int mid = lo + (hi - lo) / 2;
    TreeNode *left = build_tree(lo, mid, nchunks, img, base);
    TreeNode *right = build_tree(mid + 1, hi, nchunks, img, base);
    TreeNode &n = img[mid % nchunks][mid / nchunks];
    n.left = left;
    n.right = right;
    n.key = 3 * mid + 1; // keys 1, 4, 7, ...: queries between them miss
    n.value = mid * 7 % 1000;
    return base[mid % nchunks] + mid / nchunks;
}

int main(int argc, char **argv)
{
    app_args(argc, argv);
    AppRng rng = app_rng(10);

    // ---- lists
    const int nlists = 300, nchunks = 12, threads = 128;
    std::vector<int> len(nlists);
    int total = 0;
    for (auto &l : len) {
        l = 1 + (int)app_below(&rng, 11);
        total += l;
    }
    const int per_chunk = (total + nchunks - 1) / nchunks;
    // Scatter the nodes: node g of the concatenated lists goes to slot perm[g].
    std::vector<int> perm(nchunks * per_chunk);
    for (int i = 0; i < (int)perm.size(); ++i)
        perm[i] = i;
    for (int i = (int)perm.size() - 1; i > 0; --i)
        std::swap(perm[i], perm[app_below(&rng, (uint32_t)i + 1)]);
    std::vector<Node *> chunk(nchunks);
    for (auto &c : chunk)
        CK(cudaMalloc(&c, per_chunk * sizeof(Node)));
    std::vector<int> values;
    std::vector<int> value_at(total), count_at(total), key_at(total);
    for (int g = 0; g < total; ++g) {
        value_at[g] = (int)values.size();
        count_at[g] = 1 + (int)app_below(&rng, 4);
        key_at[g] = 1 + (int)app_below(&rng, 9);
        for (int k = 0; k < count_at[g]; ++k)
            values.push_back((int)app_below(&rng, 100));
    }
    int *d_values = nullptr;
    CK(cudaMalloc(&d_values, values.size() * sizeof(int)));
    CK(cudaMemcpy(d_values, values.data(), values.size() * sizeof(int), cudaMemcpyHostToDevice));
    auto dev_node = [&](int g) { return chunk[perm[g] / per_chunk] + perm[g] % per_chunk; };
    std::vector<std::vector<Node>> img(nchunks, std::vector<Node>(per_chunk, Node{nullptr, nullptr, 0, 0}));
    std::vector<Node *> heads(nlists);
    std::vector<int> want_sum(nlists, 0);
    for (int l = 0, g = 0; l < nlists; ++l) {
        heads[l] = dev_node(g);
        for (int k = 0; k < len[l]; ++k, ++g) {
            Node &n = img[perm[g] / per_chunk][perm[g] % per_chunk];
            n.next = k + 1 < len[l] ? dev_node(g + 1) : nullptr;
            n.payload = d_values + value_at[g];
            n.count = count_at[g];
            n.key = key_at[g];
            for (int v = 0; v < count_at[g]; ++v)
                want_sum[l] += key_at[g] * values[value_at[g] + v];
        }
    }
    for (int c = 0; c < nchunks; ++c)
        CK(cudaMemcpy(chunk[c], img[c].data(), per_chunk * sizeof(Node), cudaMemcpyHostToDevice));
    Node **d_heads = nullptr;
    int *d_sums = nullptr, *d_lens = nullptr;
    CK(cudaMalloc(&d_heads, nlists * sizeof(Node *)));
    CK(cudaMalloc(&d_sums, nlists * sizeof(int)));
    CK(cudaMalloc(&d_lens, nlists * sizeof(int)));
    CK(cudaMemcpy(d_heads, heads.data(), nlists * sizeof(Node *), cudaMemcpyHostToDevice));

    walk_lists<<<(nlists + threads - 1) / threads, threads>>>(d_heads, nlists, d_sums, d_lens);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<int> got_sum(nlists), got_len(nlists);
    CK(cudaMemcpy(got_sum.data(), d_sums, nlists * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(got_len.data(), d_lens, nlists * sizeof(int), cudaMemcpyDeviceToHost));
    for (int l = 0; l < nlists; ++l) {
        if (got_len[l] != len[l])
            app_fail("list %d: %d nodes walked, host %d", l, got_len[l], len[l]);
        if (got_sum[l] != want_sum[l])
            app_fail("list %d: sum %d, host %d", l, got_sum[l], want_sum[l]);
    }

    // ---- tree
    const int nkeys = 1023, tchunks = 3, nq = 2000;
    const int tper = (nkeys + tchunks - 1) / tchunks;
    std::vector<TreeNode *> tbase(tchunks);
    for (auto &c : tbase)
        CK(cudaMalloc(&c, tper * sizeof(TreeNode)));
    std::vector<std::vector<TreeNode>> timg(tchunks, std::vector<TreeNode>(tper, TreeNode{nullptr, nullptr, 0, 0}));
    TreeNode *root = build_tree(0, nkeys, tchunks, timg, tbase);
    for (int c = 0; c < tchunks; ++c)
        CK(cudaMemcpy(tbase[c], timg[c].data(), tper * sizeof(TreeNode), cudaMemcpyHostToDevice));
    std::vector<int> queries(nq), want_found(nq), got_found(nq);
    for (int q = 0; q < nq; ++q) {
        int i = (int)app_below(&rng, nkeys);
        bool hit = app_below(&rng, 2) == 0;
        queries[q] = 3 * i + 1 + (hit ? 0 : 1);
        want_found[q] = hit ? i * 7 % 1000 : -1;
    }
    int *d_queries = nullptr, *d_found = nullptr;
    CK(cudaMalloc(&d_queries, nq * sizeof(int)));
    CK(cudaMalloc(&d_found, nq * sizeof(int)));
    CK(cudaMemcpy(d_queries, queries.data(), nq * sizeof(int), cudaMemcpyHostToDevice));
    tree_search<<<(nq + threads - 1) / threads, threads>>>(root, d_queries, nq, d_found);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(got_found.data(), d_found, nq * sizeof(int), cudaMemcpyDeviceToHost));
    for (int q = 0; q < nq; ++q)
        if (got_found[q] != want_found[q])
            app_fail("query %d (key %d): found %d, host %d", q, queries[q], got_found[q], want_found[q]);

    for (auto c : chunk)
        CK(cudaFree(c));
    for (auto c : tbase)
        CK(cudaFree(c));
    CK(cudaFree(d_values));
    CK(cudaFree(d_heads));
    CK(cudaFree(d_sums));
    CK(cudaFree(d_lens));
    CK(cudaFree(d_queries));
    CK(cudaFree(d_found));
    app_pass();
}
